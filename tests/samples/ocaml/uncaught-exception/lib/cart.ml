type item = { name : string; cents : int; quantity : int }

type t = item list

let empty : t = []

let add cart ~name ~cents ?(quantity = 1) () = cart @ [ { name; cents; quantity } ]

let count cart = List.fold_left (fun acc item -> acc + item.quantity) 0 cart

let total cart = List.fold_left (fun acc item -> acc + (item.cents * item.quantity)) 0 cart

let format cents = Printf.sprintf "%.2f EUR" (float_of_int cents /. 100.)

let find cart name = List.find (fun item -> item.name = name) cart
