variable "name" {
  type    = string
  default = "app"
}

output "greeting" {
  value = "hello ${var.name}"
}
