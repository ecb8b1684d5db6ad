module Main where

import qualified Data.Map as Map

stock :: Map.Map String Int
stock = Map.fromList [("apple", 3)]

main :: IO ()
main = print (stock Map.! "pear")
