package main

import "fmt"

func main() {
	name := "apple"
	fmt.Printf("%d items\n", name)
	count := 2
	count = count
	fmt.Println(count)
}
