//! Bus plumbing every aggregator shares: fixed-width messages. Each
//! aggregator's own `bus` module names its message kinds and their
//! payloads; how a message is laid out on a bus is the same for all of
//! them. Sending under selectors is a gadget ([`crate::gadgets::bus`]).

use p3_field::PrimeCharacteristicRing;

/// A message of exactly `width` elements: `head` (the elements that name
/// the message's kind and place), then `payload`, zero-padded.
///
/// Every message on one bus has the same width, so that LogUp fingerprints
/// of different kinds never share a prefix by accident and mutually
/// exclusive senders can share one column.
///
/// # Panics
/// If `head` and `payload` together exceed `width`: message layouts are
/// constants of an aggregator's tables, and its tests build every kind.
pub fn message<E: PrimeCharacteristicRing + Clone>(
    width: usize,
    head: impl IntoIterator<Item = E>,
    payload: impl IntoIterator<Item = E>,
) -> Vec<E> {
    let mut m = Vec::with_capacity(width);
    m.extend(head);
    m.extend(payload);
    assert!(m.len() <= width, "message of {} elements exceeds the bus width {width}", m.len());
    m.resize(width, E::ZERO);
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Val;

    #[test]
    fn messages_are_padded_to_the_width() {
        let m = message(5, [Val::ONE], [Val::TWO, Val::TWO]);
        assert_eq!(m, vec![Val::ONE, Val::TWO, Val::TWO, Val::ZERO, Val::ZERO]);
    }

    #[test]
    #[should_panic(expected = "exceeds the bus width")]
    fn a_message_wider_than_its_bus_is_a_layout_bug() {
        message(2, [Val::ONE], [Val::TWO, Val::TWO]);
    }
}
