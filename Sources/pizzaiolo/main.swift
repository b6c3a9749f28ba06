import Pizzaiolo
import Tracks

// The sample app's command-line front end (the walkthrough is being built; see issue 6).
print("\(Pizzaiolo.appName): the walkthrough is coming.")
