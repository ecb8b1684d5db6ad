package main

import (
	"fmt"
	"os"
	"os/exec"
)

func restart(service string) {
	cmd := exec.Command("systemctl", "restart", service)
	cmd.Run()
}

func main() {
	name := "shop"
	fmt.Printf("%d items\n", name)
	x := 1
	x = x
	restart(os.Args[1])
}
