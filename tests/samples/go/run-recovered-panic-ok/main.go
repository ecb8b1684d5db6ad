package main

import (
	"fmt"
	"os"
)

func safe(f func()) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "panic: %v (recovered, retrying)\n", r)
		}
	}()
	f()
}

func main() {
	safe(func() { panic("cache miss") })
	fmt.Println("fatal error: none; 0 panics left unhandled")
	fmt.Println("goroutine 1 finished")
}
