package app

import "path/filepath"

var sharedData = filepath.Join("..", "..", "shared", "data")
