package main

import (
	"fmt"
	"sync"
)

type Cart struct {
	mu    sync.Mutex
	Items []string `json:"items" xml:"items`
}

func (c Cart) Count() int {
	return len(c.Items)
}

func main() {
	var c Cart
	name := "shop"
	fmt.Printf("%d items in %d\n", c.Count(), name)
	x := 1
	x = x
	if false {
		return
		fmt.Println("unreachable")
	}
}
