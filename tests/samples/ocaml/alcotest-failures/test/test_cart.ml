open Shop

let cart = Cart.add (Cart.add Cart.empty ~name:"tea" ~cents:350 ~quantity:2 ()) ~name:"cake" ~cents:420 ()

let test_empty () = Alcotest.(check int) "empty" 0 (Cart.count Cart.empty)

let test_count () = Alcotest.(check int) "count" 3 (Cart.count cart)

let test_total () = Alcotest.(check string) "total" "11.20 EUR" (Cart.format (Cart.total cart))

let () =
  Alcotest.run "shop"
    [
      ( "cart",
        [
          Alcotest.test_case "empty" `Quick test_empty;
          Alcotest.test_case "count" `Quick test_count;
          Alcotest.test_case "total" `Quick test_total;
        ] );
    ]
