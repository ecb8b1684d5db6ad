terraform {
  backend "s3" {
    bucket = "state"
    key    = "app.tfstate"
    region = "us-east-1"
  }
}

variable "name" {
  type    = string
  default = "app"
}
