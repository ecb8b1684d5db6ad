package store

import (
	"fmt"
	"sync"
)

type Counter struct {
	mu sync.Mutex
	n  int
}

func Snapshot(c Counter) int { return c.n }

func Report(c *Counter, name string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Printf("%d items in %s\n", name, c.n)
	return fmt.Sprintf("%s", name, c.n)
}

func Check(x int) bool {
	return x == x
}
