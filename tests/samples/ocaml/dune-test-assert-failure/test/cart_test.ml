let total prices = List.fold_left ( + ) 1 prices

let () =
  assert (total [] = 0);
  assert (total [ 120; 80 ] = 200)
