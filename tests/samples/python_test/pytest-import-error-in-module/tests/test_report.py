from shop.report import export, render


def test_render_one():
    assert render([1]) == "1"


def test_render_many():
    assert render([1, 2]) == "1, 2"


def test_export():
    assert export([1]).startswith(b"%PDF")
