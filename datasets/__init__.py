"""Synthetic training data for the card recogniser, made from deck artwork that packages ship.

artwork  decks from Debian/npm packages, rasterised once into a cache, corner-index boxes per card
tables   table tops (felt, wood, cloth, laminate, cork, GIMP tiles) and score sheets
layouts  where cards lie on a Fan Tan table (suit rows three ways, hands laid down), as card poses
scene    the renderer: table + camera + poses + hands/chips -> picture and what the camera sees
make     seeded scenes -> the detect (YOLO) and classify (crops) datasets; `fantan dataset make`

Other modules here (synthetic game videos) build on scene and layouts.

See datasets/README.md and datasets/DECKS.md.
"""
