//! Every generated stepper with its number of unknowns `N` (`(2s+1)·D` for SLRK, `s·D` for
//! VPRK Gauss, `(s+1)·D` for VPRK Lobatto, D = 2).

/// Expands `$f::<Stepper, _, N>($args…);` for every generated stepper.
macro_rules! for_every_stepper {
    ($f:ident $args:tt) => {
        for_every_stepper!(@each $f $args;
            SlrkLobattoIIIAB2 10, SlrkLobattoIIIAB3 14, SlrkLobattoIIIAB4 18, SlrkLobattoIIIAB5 22,
            SlrkLobattoIIIBA2 10, SlrkLobattoIIIBA3 14, SlrkLobattoIIIBA4 18, SlrkLobattoIIIBA5 22,
            SlrkLobattoIIICCBar2 10, SlrkLobattoIIICCBar3 14, SlrkLobattoIIICCBar4 18, SlrkLobattoIIICCBar5 22,
            SlrkLobattoIIICBarC2 10, SlrkLobattoIIICBarC3 14, SlrkLobattoIIICBarC4 18, SlrkLobattoIIICBarC5 22,
            SlrkLobattoIIID2 10, SlrkLobattoIIID3 14, SlrkLobattoIIID4 18, SlrkLobattoIIID5 22,
            SlrkLobattoIIIE2 10, SlrkLobattoIIIE3 14, SlrkLobattoIIIE4 18, SlrkLobattoIIIE5 22,
            VprkGauss1 2, VprkGauss2 4, VprkGauss3 6, VprkGauss4 8,
            VprkLobattoIIIAIIIB2 6, VprkLobattoIIIAIIIB3 8, VprkLobattoIIIAIIIB4 10,
            VprkLobattoIIIBIIIA2 6, VprkLobattoIIIBIIIA3 8, VprkLobattoIIIBIIIA4 10
        )
    };
    (@each $f:ident $args:tt; $($method:ident $n:literal),*) => {
        $($f::<sparkgen::generated::steppers::$method, _, $n> $args;)*
    };
}
