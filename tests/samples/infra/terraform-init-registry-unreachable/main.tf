resource "null_resource" "web" {
  triggers = {
    version = "1"
  }
}
