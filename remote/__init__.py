"""faultlens.remote: a CI service's runs, jobs and logs, fetched over its REST API.

`ciurl` names what was asked for (a run, a job, a pull request, a pipeline),
`http` is the one bounded HTTPS client (tokens sent only to the configured
host, redirects followed without them), `github` and `gitlab` speak each
service's API, `cireport` classifies the failed jobs' logs against the local
checkout, and `comment` keeps one pull-request comment up to date.  Nothing
here knows of LSP, MCP or the command line.
"""
