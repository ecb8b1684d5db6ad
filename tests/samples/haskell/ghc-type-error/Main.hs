module Main (main) where

import Shop

main :: IO ()
main = putStrLn ("Total: " ++ formatPrice (total [Item "tea" (Price 350 "EUR") 2]))
