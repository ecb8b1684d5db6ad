"""What a command is: a test runner, a compiler or linter, a security
scanner, a package manager or network tool, git, an agent CLI; read from its
argv past wrappers and runners (`npx eslint` is eslint, `bundle exec rspec`
is rspec), else from its name.  The fallback (fallback.py) files a failure
no rule explained by it; the other modules ask which program ran.

Pure functions over the argv; a command string is split like a shell would,
never run.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterable, Sequence

from .lazyre import lazy_compile
from .taxonomy import FailureType


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_TEST_TOOLS = _words(
    """
    pytest py.test jest vitest mocha ava tap karma playwright cypress ctest rspec
    phpunit tox nox nextest gotestsum unittest nose2 ward bats busted prove behave
    cucumber cucumber-js robot jasmine tape uvu testcafe wdio nightwatch pest codecept
    minitest hspec kaocha ctest3
    """
)
_COMPILE_TOOLS = _words(
    """
    tsc esbuild vite webpack rollup parcel turbo swc babel gcc g++ cc c++ clang clang++
    make cmake ninja meson bazel rustc javac kotlinc scalac swiftc zig mypy pyright ruff
    flake8 pylint eslint tslint biome py_compile compileall msbuild shellcheck hadolint
    yamllint actionlint markdownlint markdownlint-cli2 stylelint prettier standard black
    isort pydocstyle golangci-lint staticcheck go-staticcheck sqlfluff codespell rubocop
    standardrb reek fasterer haml-lint slim-lint erb_lint phpstan psalm phpcs
    php-cs-fixer phpmd protolint buf puppet-lint remark remark-cli misspell scalastyle
    scalafmt dotenv-linter golint revive gofmt goimports rustfmt clang-format clang-tidy
    cppcheck cpplint ktlint detekt swiftlint swiftformat hlint credo luacheck stylua
    perlcritic pyflakes pycodestyle pyre pytype flow mdl vale textlint jsonlint taplo
    xmllint editorconfig-checker cfn-lint tflint ansible-lint yapf autopep8 shfmt dprint
    oxlint xo commitlint lint-staged alex write-good typos vulture deptry pyupgrade
    djlint htmlhint sass-lint csslint jshint jscs coffeelint elm-format ormolu fourmolu
    dartanalyzer checkstyle pmd spotbugs ghc elixirc erlc ocamlfind tsc-files vue-tsc
    svelte-check
    """
)
# Security scanners: what they report is a gate to pass, not code to fix blindly.
_SECURITY_TOOLS = _words(
    """
    bandit semgrep gitleaks trufflehog detect-secrets detect-secrets-hook safety
    pip-audit trivy grype snyk gosec govulncheck brakeman bundler-audit bundle-audit
    osv-scanner checkov tfsec kics terrascan dependency-check retire audit-ci
    better-npm-audit njsscan horusec ggshield talisman git-secrets cosign syft zizmor
    """
)
# Package managers, network, container and deploy tools: their failure is
# the environment's (a registry, a host, a cluster).
_INFRA_TOOLS = _words(
    """
    pip pip3 pipx apt apt-get dnf yum apk brew gem bundle bundler composer conda mamba
    micromamba poetry pdm uv rye pipenv curl wget ssh scp rsync nc ping dig nslookup
    docker docker-compose podman buildah kubectl helm kustomize minikube kind terraform
    tofu pulumi ansible ansible-playbook aws gcloud az flyctl heroku vercel netlify
    wrangler serverless sam cdk psql mysql redis-cli systemctl service vagrant packer
    """
)
_AGENT_TOOLS = _words(
    """
    claude codex aider gemini cursor-agent copilot goose amp opencode llm openai
    anthropic cline
    """
)
# Subcommands of multi-purpose tools: (tool, subcommand) → category.
_SUBCOMMANDS: dict[str, dict[str, FailureType]] = {
    "cargo": {
        "test": FailureType.TEST,
        "nextest": FailureType.TEST,
        "build": FailureType.COMPILE,
        "check": FailureType.COMPILE,
        "clippy": FailureType.COMPILE,
        "run": FailureType.COMPILE,
    },
    "go": {
        "test": FailureType.TEST,
        "build": FailureType.COMPILE,
        "vet": FailureType.COMPILE,
        "run": FailureType.COMPILE,
        "install": FailureType.COMPILE,
    },
    "dotnet": {"test": FailureType.TEST, "build": FailureType.COMPILE},
    "mvn": {
        "test": FailureType.TEST,
        "verify": FailureType.TEST,
        "compile": FailureType.COMPILE,
        "package": FailureType.COMPILE,
        "install": FailureType.COMPILE,
    },
    "gradle": {
        "test": FailureType.TEST,
        "check": FailureType.TEST,
        "build": FailureType.COMPILE,
        "assemble": FailureType.COMPILE,
        "compileJava": FailureType.COMPILE,
    },
    "bun": {"test": FailureType.TEST, "build": FailureType.COMPILE},
    "deno": {"test": FailureType.TEST, "check": FailureType.COMPILE},
    "swift": {"test": FailureType.TEST, "build": FailureType.COMPILE},
    "dart": {
        "test": FailureType.TEST,
        "analyze": FailureType.COMPILE,
        "format": FailureType.COMPILE,
    },
    "flutter": {"test": FailureType.TEST, "analyze": FailureType.COMPILE, "pub": FailureType.INFRA},
    "dune": {"test": FailureType.TEST, "runtest": FailureType.TEST, "build": FailureType.COMPILE},
    "mix": {
        "test": FailureType.TEST,
        "compile": FailureType.COMPILE,
        "format": FailureType.COMPILE,
        "credo": FailureType.COMPILE,
        "dialyzer": FailureType.COMPILE,
        "deps.get": FailureType.INFRA,
        "deps.audit": FailureType.TRUST_GATE,
        "sobelow": FailureType.TRUST_GATE,
    },
    "rebar3": {"eunit": FailureType.TEST, "ct": FailureType.TEST, "compile": FailureType.COMPILE},
    "stack": {"test": FailureType.TEST, "build": FailureType.COMPILE},
    "cabal": {"test": FailureType.TEST, "build": FailureType.COMPILE},
    "sbt": {
        "test": FailureType.TEST,
        "compile": FailureType.COMPILE,
        "scalastyle": FailureType.COMPILE,
    },
}
_SUBCOMMANDS["cargo"].update(
    {"audit": FailureType.TRUST_GATE, "deny": FailureType.TRUST_GATE, "fmt": FailureType.COMPILE}
)
_SUBCOMMANDS["cargo"].update({"fetch": FailureType.INFRA, "publish": FailureType.INFRA})
_SUBCOMMANDS["go"].update(
    {"mod": FailureType.INFRA, "get": FailureType.INFRA, "fmt": FailureType.COMPILE}
)
_SUBCOMMANDS["dotnet"].update(
    {"restore": FailureType.INFRA, "format": FailureType.COMPILE, "publish": FailureType.INFRA}
)
# What a package manager's own subcommand is (npm/yarn/pnpm/bun: the rest are scripts).
_PKG_SUBCOMMANDS: dict[str, FailureType] = {
    "audit": FailureType.TRUST_GATE,
    "install": FailureType.INFRA,
    "i": FailureType.INFRA,
    "ci": FailureType.INFRA,
    "add": FailureType.INFRA,
    "update": FailureType.INFRA,
    "upgrade": FailureType.INFRA,
    "publish": FailureType.INFRA,
    "pack": FailureType.INFRA,
    "link": FailureType.INFRA,
}
_SUBCOMMANDS["./mvnw"] = _SUBCOMMANDS["mvnw"] = _SUBCOMMANDS["mvn"]
_SUBCOMMANDS["./gradlew"] = _SUBCOMMANDS["gradlew"] = _SUBCOMMANDS["gradle"]
# Wrappers whose first real argument is the command that matters.
_WRAPPERS = frozenset(
    {"sudo", "env", "time", "nice", "timeout", "xvfb-run", "stdbuf", "command", "exec", "nohup"}
)
_RUNNERS = {"npx": 1, "pnpx": 1, "bunx": 1, "uvx": 1, "pipx": 2}  # tool after n words
_PKG_RUN = frozenset({"npm", "pnpm", "yarn", "bun"})
_PY_RUN = {
    ("uv", "run"),
    ("poetry", "run"),
    ("pdm", "run"),
    ("hatch", "run"),
    ("pipenv", "run"),
    ("rye", "run"),
    ("pixi", "run"),
    ("bundle", "exec"),
    ("bundler", "exec"),
}
_PYTHON = lazy_compile(r"^python(?:\d(?:\.\d+)?)?$")


def argv_of(command: Sequence[str] | str | None) -> list[str]:
    """The command as an argv list (a string is split like a shell would,
    never run)."""
    if command is None:
        return []
    if isinstance(command, str):
        try:
            return shlex.split(command)
        except ValueError:
            return command.split()
    return [str(a) for a in command]


_NAME_WORDS: tuple[tuple[FailureType, tuple[str, ...]], ...] = (
    (FailureType.TRUST_GATE, ("audit", "secret", "vuln", "sast", "security", "scan")),
    (FailureType.TEST, ("test", "spec", "e2e")),
    (
        FailureType.COMPILE,
        ("build", "compile", "typecheck", "type-check", "tsc", "lint", "bundle", "fmt", "format"),
    ),
    (FailureType.COMPILE, ("check", "verify", "validate")),  # `check-release`: a check
    (
        FailureType.INFRA,
        tuple(
            _words("deploy install release provision migrate publish upload download fetch setup")
        )
        + tuple(_words("bootstrap docker k8s helm infra rollout")),
    ),
)


def name_category(name: str) -> FailureType | None:
    """What a script or program is, read from its name (`check-release.sh`
    → compile, `run_tests` → test, `deploy` → infra), or None."""
    low = os.path.basename(name).lower()
    for category, words in _NAME_WORDS:
        if any(w in low for w in words):
            return category
    return None


def _script_category(name: str) -> FailureType | None:
    if name.lower() == "check":
        return FailureType.TEST  # `npm run check`, `make check`: the project's checks
    return name_category(name)


def exit_is_a_state(command: Sequence[str] | str | None, exit_code: int | None) -> bool:
    """Whether the command's exit status reports a state, not a failure:
    `gh pr checks` exits 8 while checks are pending (cli/cli
    pkg/cmd/pr/checks/checks.go, "Additional exit codes: 8: Checks pending")."""
    argv = _unwrap(argv_of(command))
    words = [a for a in argv[1:] if not a.startswith("-")]
    return (
        exit_code == 8 and bool(argv) and os.path.basename(argv[0]) == "gh"
        and words[:2] == ["pr", "checks"]
    )  # fmt: skip


def prints_a_job_log(command: Sequence[str] | str | None) -> bool:
    """Whether the command prints a CI job's log (`gh run view --log-failed`,
    `--log`; `glab ci trace`): its own exit status, 0, says nothing of the
    failures the log holds."""
    argv = _unwrap(argv_of(command))
    name = os.path.basename(argv[0]) if argv else ""
    words = [a for a in argv[1:] if not a.startswith("-")]
    if name == "gh" and words[:2] == ["run", "view"]:
        return any(a in ("--log", "--log-failed") for a in argv[1:])
    return name == "glab" and words[:2] == ["ci", "trace"]


def _unwrap(argv: list[str]) -> list[str]:
    """The argv from the program that does the work: past `VAR=value`
    words, wrappers (sudo, env, timeout...), runners (npx, uvx, `uv run`)
    and `python -m`."""
    while argv:
        word = argv[0]
        name = os.path.basename(word)
        rest = argv[1:]
        if "=" in word and not word.startswith("-") and name == word:  # VAR=value
            argv = rest
        elif name in _WRAPPERS:
            argv = [a for a in rest if not a.startswith("-")] if name != "timeout" else rest[1:]
        elif name in _RUNNERS:
            argv = [a for a in rest if not a.startswith("-")][_RUNNERS[name] - 1 :]
        elif (rest and (name, rest[0]) in _PY_RUN) or (
            _PYTHON.match(name) and len(rest) >= 2 and rest[0] == "-m"
        ):
            argv = rest[1:]  # `uv run X`, `python -m X`
        else:
            return argv
    return argv


def command_tool(command: Sequence[str] | str | None) -> str | None:
    """The program a command runs, past wrappers and runners (`npx eslint`
    → eslint, `python -m flake8` → flake8), or None."""
    argv = _unwrap(argv_of(command))
    return os.path.basename(argv[0]) if argv else None


def command_category(command: Sequence[str] | str | None) -> FailureType:
    """The category a failed run of `command` most likely belongs to (a
    command whose kind is not known: compile, its own failure; no command
    at all: infra)."""
    argv = _unwrap(argv_of(command))
    if not argv:
        return FailureType.INFRA
    return command_kind(argv) or FailureType.COMPILE


def command_kind(command: Sequence[str] | str | None) -> FailureType | None:
    """The category of what `command` is, or None when neither the program
    nor its name says (`./tools/run.sh`, `python -c ...`)."""
    argv = _unwrap(argv_of(command))
    while argv:
        word = argv[0]
        name = os.path.basename(word)
        rest = argv[1:]
        if _PYTHON.match(name):
            script = next((a for a in rest if not a.startswith("-")), None)
            return name_category(script) if script and "-c" not in rest else None
        if name in _PKG_RUN:
            words = [a for a in rest if not a.startswith("-")]
            if not words:
                return FailureType.INFRA  # a bare `npm` / `yarn`: an install
            if words[0] in {"run", "run-script"} and len(words) > 1:
                return _script_category(words[1])
            if words[0] in {"test", "t", "tst"}:
                return FailureType.TEST
            if words[0] in {"exec", "dlx", "x"} and len(words) > 1:
                argv = _unwrap(words[1:])
                continue
            if words[0] in _PKG_SUBCOMMANDS:
                return _PKG_SUBCOMMANDS[words[0]]
            return _script_category(words[0])
        if name in _TEST_TOOLS:
            return FailureType.TEST
        if name in _SECURITY_TOOLS:
            return FailureType.TRUST_GATE
        if name in _COMPILE_TOOLS:
            if name == "make" and any(w in {"test", "check"} for w in rest):
                return FailureType.TEST
            if name == "vite" and rest[:1] == ["test"]:
                return FailureType.TEST
            return FailureType.COMPILE
        if name in _SUBCOMMANDS:
            words = [a for a in rest if not a.startswith("-")]
            return _SUBCOMMANDS[name].get(words[0] if words else "", FailureType.COMPILE)
        if name in {"git", "gh", "hub", "glab"}:
            return FailureType.BRANCH_DIVERGENCE
        if name in _AGENT_TOOLS:
            return FailureType.PROMPT_DELIVERY
        if name == "node" and "--test" in rest:
            return FailureType.TEST
        if name in _INFRA_TOOLS:
            words = [a for a in rest if not a.startswith("-")]
            if name in {"pip", "pip3", "uv"} and "audit" in words[:2]:
                return FailureType.TRUST_GATE
            return FailureType.INFRA
        if name in {"ruby", "node", "bash", "sh", "zsh", "perl", "php", "deno", "tsx", "ts-node"}:
            script = next((a for a in rest if not a.startswith("-")), None)
            return name_category(script) if script else None
        return name_category(name)
    return None


_TEST_OUTPUT = lazy_compile(
    r"\bFAIL(?:ED|URES?)?\b|\bAssertionError\b|\bassert(?:ion)? failed\b|\bnot ok \d"
    r"|\b\d+ (?:tests? )?failed\b|\bexpected\b.+\b(?:but (?:got|was|received)|to (?:be|equal))\b",
    re.IGNORECASE,
)


def output_category(lines: Iterable[str]) -> FailureType | None:
    """What the output of a command of unknown kind says it was: a test
    report (`FAIL`, a failing assertion, `not ok 3`) → test; None when it
    does not say."""
    return FailureType.TEST if any(_TEST_OUTPUT.search(t) for t in lines) else None
