module Shop
  ( Price (..)
  , Item (..)
  , count
  , total
  , formatPrice
  ) where

import Text.Printf (printf)

data Price = Price {cents :: Int, currency :: String}
  deriving (Eq, Show)

data Item = Item {itemName :: String, itemPrice :: Price, quantity :: Int}
  deriving (Eq, Show)

count :: [Item] -> Int
count = map quantity

total :: [Item] -> Price
total items = Price (sum [cent (itemPrice i) * quantity i | i <- items]) "EUR"

formatPrice :: Price -> String
formatPrice (Price c cur) = printf "%.2f %s" (fromIntegral c / 100 :: Double) cur
