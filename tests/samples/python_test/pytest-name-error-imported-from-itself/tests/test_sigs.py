from intro._sigs import builtins, module_info


def test_builtins_are_known():
    assert module_info[builtins]["len"] == ["obj"]
