setup() {
  source ./lib/greeting.sh
}

@test "greets the world" {
  run greet world
  [ "$output" = "hello world" ]
}
