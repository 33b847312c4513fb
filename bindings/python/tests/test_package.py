"""The package itself: the README's example runs, and the stubs list
exactly what the module exports."""

import ast
import re
from pathlib import Path

import sigagg
import sigagg._native as native

HERE = Path(__file__).resolve().parent
README = HERE.parent / "README.md"
STUBS = HERE.parent / "python" / "sigagg" / "_native.pyi"


def test_readme_example_runs(capsys):
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    assert len(code.strip().splitlines()) <= 12
    exec(compile(code, str(README), "exec"), {})
    out = capsys.readouterr().out
    assert "proof of 3 signatures; other message refused: invalid proof" in out


def test_readme_installs_with_pip():
    assert "pip install ./bindings/python" in README.read_text()


def public_names(module):
    return {n for n in dir(module) if not n.startswith("_")}


def stub_names():
    tree = ast.parse(STUBS.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names - {"Scheme", "Settings", "Bytes", "CertificateInfo", "MithrilInfo"}  # typing helpers of the stubs


def test_stubs_cover_the_module_and_the_package_reexports_it():
    assert stub_names() == public_names(native)
    assert set(sigagg.__all__) == public_names(native)
    for name in sigagg.__all__:
        assert getattr(sigagg, name) is getattr(native, name)


def text_parameters(function):
    """`(name, default or None)` of each parameter in `__text_signature__`."""
    inner = function.__text_signature__.strip("()")
    params = [p for p in inner.split(", ") if p and p not in ("$module", "/", "*")]
    return [tuple(p.split("=", 1)) if "=" in p else (p, None) for p in params]


def stub_parameters(node):
    args = node.args.args
    defaults = [None] * (len(args) - len(node.args.defaults)) + node.args.defaults
    return [(a.arg, None if d is None else ast.unparse(d).replace("'", '"')) for a, d in zip(args, defaults)]


def test_stub_signatures_match_the_functions():
    """Parameter names and defaults of every function agree with the stubs."""
    functions = [n for n in ast.parse(STUBS.read_text()).body if isinstance(n, ast.FunctionDef)]
    assert len(functions) == 46
    for node in functions:
        assert text_parameters(getattr(native, node.name)) == stub_parameters(node), node.name


def test_typed_package_marker():
    assert (HERE.parent / "python" / "sigagg" / "py.typed").exists()
