package main

import "fmt"

func main() {
	fmt.Println(strings.ToUpper("x"))
	var n int = "s"
}
