// Package readfile reads whole files as os.ReadFile does, in fewer system
// calls: a corpus of small files spends much of its reading time opening
// them.
package readfile
