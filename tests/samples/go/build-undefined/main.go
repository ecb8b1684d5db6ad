package main

import "fmt"

func normalise(name string) string {
	return strings.ToLower(strings.TrimSpace(name))
}

func main() {
	total := 3
	fmt.Println(normalise(" Apple "), totl)
}
