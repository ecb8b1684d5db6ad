import report_helpers_missing


class ReportTest:
    pass
