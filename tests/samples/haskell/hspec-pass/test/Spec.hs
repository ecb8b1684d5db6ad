import Shop
import Test.Hspec

cart :: [Item]
cart = [Item "tea" (Price 350 "EUR") 2, Item "cake" (Price 420 "EUR") 1]

main :: IO ()
main = hspec $ do
  describe "count" $ do
    it "is 0 for an empty cart" $
      count [] `shouldBe` 0
    it "counts the quantities" $
      count cart `shouldBe` 3
  describe "total" $
    it "totals the prices" $
      formatPrice (total cart) `shouldBe` "11.20 EUR"
