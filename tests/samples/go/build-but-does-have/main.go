package main

import "fmt"

type English struct{}

func (English) Greet() string { return "hello" }

func main() {
	e := English{}
	fmt.Println(e.greet())
}
