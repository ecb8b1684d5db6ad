def hi
  puts 'hi'
end
