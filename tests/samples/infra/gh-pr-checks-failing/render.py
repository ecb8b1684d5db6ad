"""`python3 render.py tty|notty [passing]`: render `gh pr checks` output as cli/cli v2.60.0 prints it (pkg/cmd/pr/checks/output.go,
internal/tableprinter, colour off)."""
import sys

def table(rows, header, tty):
    if not tty:
        return "".join("\t".join(r) + "\n" for r in rows)
    allrows = [header] + rows
    widths = [max(len(r[i]) for r in allrows) for i in range(len(header))]
    out = []
    for r in allrows:
        cells = [c.ljust(widths[i]) if i < len(r) - 1 else c for i, c in enumerate(r)]
        out.append("  ".join(cells) + "\n")
    return "".join(out)

def render(checks, tty):
    order = {"fail": 0, "pending": 1, "pass": 2, "skipping": 2, "cancel": 2}
    def less(a, b):  # output.go's sort.Slice comparator (small slices: a stable insertion sort)
        if a["bucket"] == b["bucket"]:
            return a["link"] < b["link"] if a["name"] == b["name"] else a["name"] < b["name"]
        return a["bucket"] == "fail" or (a["bucket"] == "pending" and b["bucket"] == "success")
    import functools
    checks = sorted(checks, key=functools.cmp_to_key(lambda a, b: -1 if less(a, b) else (1 if less(b, a) else 0)))
    counts = {k: sum(c["bucket"] == k for c in checks) for k in order}
    out = ""
    if tty:
        if counts["fail"]:
            s = "Some checks were not successful"
        elif counts["pending"]:
            s = "Some checks are still pending"
        elif counts["cancel"]:
            s = "Some checks were cancelled"
        else:
            s = "All checks were successful"
        out += s + "\n" + (f"{counts['cancel']} cancelled, {counts['fail']} failing, {counts['pass']} successful, "
                          f"{counts['skipping']} skipped, and {counts['pending']} pending checks") + "\n\n"
        marks = {"fail": "X", "pending": "*", "skipping": "-", "cancel": "-", "pass": "✓"}
        rows = []
        for c in checks:
            name = (c["workflow"] + "/" if c.get("workflow") else "") + c["name"] + (f" ({c['event']})" if c.get("event") else "")
            rows.append([marks[c["bucket"]], name, c.get("desc", ""), c.get("elapsed", ""), c["link"]])
        return out + table(rows, ["", "NAME", "DESCRIPTION", "ELAPSED", "URL"], True)
    rows = [[c["name"], "fail" if c["bucket"] == "cancel" else c["bucket"], c.get("elapsed") or "0", c["link"], c.get("desc", "")] for c in checks]
    return table(rows, None, False)

# cli/cli's own test (checks_test.go "some failing tty" / "some failing"): the renderer must match it
t = [dict(name="sad tests", bucket="fail", elapsed="1m26s", link="sweet link"),
     dict(name="cool tests", bucket="pass", elapsed="1m26s", link="sweet link"),
     dict(name="slow tests", bucket="pending", elapsed="1m26s", link="sweet link")]
want_tty = """Some checks were not successful
0 cancelled, 1 failing, 1 successful, 0 skipped, and 1 pending checks

   NAME        DESCRIPTION  ELAPSED  URL
X  sad tests                1m26s    sweet link
✓  cool tests               1m26s    sweet link
*  slow tests               1m26s    sweet link
"""
assert render(t, True) == want_tty, repr(render(t, True))
assert render(t, False) == "sad tests\tfail\t1m26s\tsweet link\t\ncool tests\tpass\t1m26s\tsweet link\t\nslow tests\tpending\t1m26s\tsweet link\t\n"

R = "https://github.com/acme/shop/actions/runs"
shop = [
    dict(name="typecheck", workflow="CI", event="pull_request", bucket="fail", elapsed="41s", link=f"{R}/77/job/901"),
    dict(name="lint", workflow="CI", event="pull_request", bucket="fail", elapsed="18s", link=f"{R}/77/job/902"),
    dict(name="build", workflow="CI", event="pull_request", bucket="pass", elapsed="1m2s", link=f"{R}/77/job/903"),
    dict(name="license/cla", bucket="fail", desc="Contributor License Agreement is not signed yet.", link="https://cla-assistant.io/acme/shop?pullRequest=12"),
    dict(name="deploy-preview", workflow="Preview", event="pull_request", bucket="pending", link=f"{R}/78/job/911"),
]
if sys.argv[2:] == ["passing"]:  # the same pull request after the fixes: only the deploy pending
    shop = [dict(c, bucket="pending" if c["bucket"] == "pending" else "pass") for c in shop]
    shop[3]["desc"] = "Contributor License Agreement is signed."
sys.stdout.write(render(shop, sys.argv[1] == "tty"))
