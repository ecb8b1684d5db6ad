provider "aws" {
  region = "eu-west-1"
}

variable "ami" {
  type    = string
  default = "ami-0123456789abcdef0"
}

resource "aws_instance" "web" {
  ami           = var.ami
  instance_type = "t3.micro"

  tags = {
    Name = "checkout-web"
  }
}
