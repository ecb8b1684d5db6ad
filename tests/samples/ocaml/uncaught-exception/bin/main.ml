let () =
  let open Shop in
  let cart = Cart.add (Cart.add Cart.empty ~name:"tea" ~cents:350 ~quantity:2 ()) ~name:"cake" ~cents:420 () in
  let cake = Cart.find cart "cakes" in
  print_endline ("Cake: " ^ Cart.format cake.Cart.cents)
