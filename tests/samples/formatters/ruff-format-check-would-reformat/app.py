def f( a,b ):
    return {"a":a,"b":b}
