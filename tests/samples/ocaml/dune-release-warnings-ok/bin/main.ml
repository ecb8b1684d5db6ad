let () =
  let open Shop in
  let cart = Cart.add (Cart.add Cart.empty ~name:"tea" ~cents:350 ~quantity:2 ()) ~name:"cake" ~cents:420 () in
  print_endline ("Total: " ^ Cart.format (Cart.total cart))
