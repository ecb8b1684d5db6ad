def handle_error(err):
    return {"error": str(err), "failed": False}


def test_error_handler_reports_the_error():
    assert handle_error(ValueError("boom"))["error"] == "boom"


def test_failure_flag_is_false():
    assert handle_error(ValueError("x"))["failed"] is False
