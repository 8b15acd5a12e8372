"""The type stubs (xpbd.pyi) list exactly the module's public API, and help() has text."""

import ast
import pathlib

import xpbd

STUB = pathlib.Path(__file__).resolve().parents[1] / "xpbd.pyi"


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
    public = {n for n in dir(xpbd) if not n.startswith("_")} - {"xpbd"}
    assert public == set(classes), public ^ set(classes)
    scene = {n for n in dir(xpbd.Scene) if not n.startswith("_")}
    assert scene == classes["Scene"], scene ^ classes["Scene"]


def test_every_public_method_has_a_docstring():
    for name in stub_api()["Scene"]:
        doc = getattr(xpbd.Scene, name).__doc__
        assert doc and len(doc.strip()) > 10, name
    for cls in (xpbd.XpbdError, xpbd.SceneError, xpbd.StepError, xpbd.CheckpointError,
                xpbd.XpbdIOError):
        assert cls.__doc__, cls
    assert "from_file" in xpbd.__doc__
