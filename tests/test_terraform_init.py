"""infra.terraform_init on captured Terraform output (tests/samples/infra/
terraform-init-*): the diagnostic that asks for `terraform init` is one
record; a log that merely runs `terraform init` is none."""

from __future__ import annotations

from pathlib import Path

from faultlens.classifier import Options, classify_file, classify_text

SAMPLES = Path(__file__).parent / "samples" / "infra"


def test_a_backend_that_needs_init_is_one_record_though_init_is_named_twice():
    d = SAMPLES / "terraform-init-required-backend"
    text = (d / "output.txt").read_text()
    assert text.count("terraform init") == 2
    (rec,) = classify_file(d / "output.txt", Options(cwd=str(d)))
    assert rec.rule == "infra.terraform_init"
    assert rec.hint["suggested_command"] == "terraform init" and rec.hint["transient"] is False
    assert "command" not in rec.hint  # the run's own command line goes there


def test_running_terraform_init_after_another_tools_error_is_no_terraform_record():
    log = (
        "Error: Cannot find module 'left-pad'\n"
        "    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)\n"
        "##[group]Run terraform init\n"
        "+ terraform init -input=false\n"
    )
    assert [r.rule for r in classify_text(log) if r.rule == "infra.terraform_init"] == []
