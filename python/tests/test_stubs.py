"""The type stubs of the extension (xpbd/_xpbd.pyi) list exactly its public API, the package
re-exports it, and help() has text."""

import ast
import pathlib

import xpbd
import xpbd._xpbd

STUB = pathlib.Path(__file__).resolve().parents[1] / "xpbd" / "_xpbd.pyi"

# The package's own pure-Python modules (typed inline), next to the extension's names.
PY_MODULES = {"usd"}


def stub_api():
    tree = ast.parse(STUB.read_text())
    classes = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            classes[node.name] = {
                n.name for n in node.body
                if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")
            }
    return classes


def test_stubs_match_the_module():
    classes = stub_api()
    public = {n for n in dir(xpbd._xpbd) if not n.startswith("_")}
    assert public == set(classes), public ^ set(classes)
    package = {n for n in dir(xpbd) if not n.startswith("_")} - PY_MODULES
    assert package == set(classes), package ^ set(classes)
    assert set(xpbd.__all__) == set(classes) | PY_MODULES | {"__version__"}
    for name in classes:
        assert getattr(xpbd, name) is getattr(xpbd._xpbd, name), name
    scene = {n for n in dir(xpbd.Scene) if not n.startswith("_")}
    assert scene == classes["Scene"], scene ^ classes["Scene"]
    assert (STUB.parent / "py.typed").is_file()


def test_every_public_method_has_a_docstring():
    for name in stub_api()["Scene"]:
        doc = getattr(xpbd.Scene, name).__doc__
        assert doc and len(doc.strip()) > 10, name
    for cls in (xpbd.XpbdError, xpbd.SceneError, xpbd.StepError, xpbd.CheckpointError,
                xpbd.XpbdIOError):
        assert cls.__doc__, cls
    assert "from_file" in xpbd.__doc__
    for name in xpbd.usd.__all__:
        assert getattr(xpbd.usd, name).__doc__, name
    assert xpbd.__version__ == xpbd._xpbd.__version__
