"""The FESA program's files into the database: turnering.txt, the rating-list state, published tables."""
