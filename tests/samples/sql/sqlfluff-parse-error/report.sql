select id,
    total
from orders
where total >> 100 and and id = 1
