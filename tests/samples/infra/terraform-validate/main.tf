terraform {
  required_version = ">= 1.5"
}

locals {
  app = "checkout"
}

output "endpoint" {
  description = "Where the service answers"
  value       = "https://${local.app}.${var.domain}"
}
