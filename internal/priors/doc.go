// Package priors reads the class priors that users give the command and
// the server as text, "spam=0.1,ham=0.9", into the model's class order.
// Errors wrap ErrPriors and name the offending item or classes.
package priors
