module Main where

import qualified Data.Map as Map

prices :: Map.Map String Int
prices = Map.fromList [("apple", 3), ("pear", 2)]

price :: String -> Int
price item = case Map.lookup item prices of
  Just p -> p
  Nothing -> error ("no price for " ++ item)

main :: IO ()
main = print (sum (map price ["apple", "plum"]))
