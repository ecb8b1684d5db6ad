package main

import "fmt"

type Cart struct{ items []string }

func first(c *Cart) string { return c.items[0] }

func main() {
	var c *Cart
	fmt.Println(first(c))
}
