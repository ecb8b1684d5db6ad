main :: IO ()
main = putStrLn (1 + "x")

f :: Int -> Int
f = g
