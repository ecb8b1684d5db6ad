package main

import "fmt"

func main() {
	fmt.Println("doctor: a 'go.mod file not found' error means: run go mod init")
	fmt.Println("doctor: this folder does not contain main module problems; 0 found")
}
