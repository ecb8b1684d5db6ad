"""Paths printed by tools on Windows runners (`D:\\a\\app\\app\\src\\x.cs`)."""

from __future__ import annotations

from faultlens.classifier.locate import Locator


def test_a_windows_drive_path_maps_onto_the_file_under_the_cwd(tmp_path):
    (tmp_path / "Shop").mkdir()
    (tmp_path / "Shop" / "Cart.cs").write_text("class Cart {}\n")
    loc = Locator(tmp_path)
    assert loc.resolve(r"D:\a\shop\shop\Shop\Cart.cs") == "Shop/Cart.cs"
    assert loc.in_project(r"D:\a\shop\shop\Shop\Cart.cs")


def test_a_windows_drive_path_outside_the_tree_is_kept_as_printed(tmp_path):
    loc = Locator(tmp_path)
    assert loc.resolve(r"C:\Program Files\dotnet\sdk\Sdks\Microsoft.NET.Sdk.targets") == (
        "C:/Program Files/dotnet/sdk/Sdks/Microsoft.NET.Sdk.targets"
    )
    assert not loc.in_project(r"C:\Program Files\dotnet\sdk\Sdks\Microsoft.NET.Sdk.targets")
