def test_invoice_render(snapshot):
    assert {"total": 43, "currency": "EUR"} == snapshot
