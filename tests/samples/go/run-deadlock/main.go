package main

import "fmt"

func main() {
	totals := make(chan int)
	totals <- 1
	fmt.Println(<-totals)
}
