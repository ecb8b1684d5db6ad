def broken(
  puts "x"
end
class
