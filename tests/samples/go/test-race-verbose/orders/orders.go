package orders

import "sync"

// Take records n orders concurrently and returns how many were taken.
func Take(n int) int {
	taken := 0
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			taken++
		}()
	}
	wg.Wait()
	return taken
}
