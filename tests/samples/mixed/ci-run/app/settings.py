"""Deployment settings."""

SETTINGS = {
    "region": "eu-west-1",
    "bucket": "reports",
}
AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
SETTINGS["aws_secret_access_key"] = AWS_SECRET_ACCESS_KEY
