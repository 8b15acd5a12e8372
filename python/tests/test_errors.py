"""Scene errors: the Rust error's text (file:line, field, value) as xpbd.SceneError."""

import pytest
import xpbd
from conftest import scene_path


def chain_text() -> str:
    return scene_path("hanging_chain").read_text()


def line_of(text: str, needle: str) -> int:
    return next(k + 1 for k, line in enumerate(text.splitlines()) if needle in line)


def test_unknown_field_names_file_line_field(tmp_path):
    text = chain_text().replace("[time]", "[time]\nfoo = 1")
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    for build in (lambda: xpbd.Scene.from_file(bad),
                  lambda: xpbd.Scene.from_toml(text, path=str(bad))):
        with pytest.raises(xpbd.SceneError) as e:
            build()
        line = line_of(text, "foo = 1")
        assert str(e.value).startswith(
            f"{bad}:{line}:1: field `time.foo`: unknown field `foo`, expected one of `dt`"
        ), str(e.value)
        assert (e.value.file, e.value.line, e.value.field) == (str(bad), line, "time.foo")
        assert isinstance(e.value, xpbd.XpbdError)


def test_negative_density_names_field_and_value():
    text = chain_text().replace("density = 7850.0", "density = -7850.0")
    with pytest.raises(xpbd.SceneError) as e:
        xpbd.Scene.from_toml(text, path="scenes/bad.toml")
    line = line_of(text, "density = -7850.0")
    assert str(e.value) == (
        f"scenes/bad.toml:{line}: field `materials.steel.density` = -7850: "
        "must be finite and > 0"
    )
    assert e.value.value == "-7850" and e.value.line == line


def test_from_dict_errors_name_the_field():
    d = xpbd.Scene.from_file(scene_path("hanging_chain")).to_dict()
    d["rope"][0]["links"] = 0
    with pytest.raises(xpbd.SceneError, match=r"^<dict>:\d+: field `rope\[0\]\.links` = 0"):
        xpbd.Scene.from_dict(d)
    d["rope"][0]["links"] = {1, 2}
    with pytest.raises(xpbd.SceneError, match=r"field `rope\[0\]\.links`: a value of type `set`"):
        xpbd.Scene.from_dict(d)
    d["rope"][0]["links"] = 4
    d["rope"][0]["linsk"] = 4
    with pytest.raises(xpbd.SceneError, match="unknown field `linsk`") as e:
        xpbd.Scene.from_dict(d)
    assert e.value.field == "rope[0].linsk"


def test_missing_file():
    with pytest.raises(xpbd.SceneError, match="nope.toml: cannot read: "):
        xpbd.Scene.from_file("nope.toml")


def test_numpy_values_in_dicts():
    import numpy as np

    d = xpbd.Scene.from_file(scene_path("hanging_chain")).to_dict()
    d["rope"][0]["start"] = np.array([0.0, 0.0, 1.0])
    d["rope"][0]["links"] = np.int64(20)
    s = xpbd.Scene.from_dict(d)
    assert len(s) == 21
