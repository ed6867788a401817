import { createTheme } from '@mui/material/styles';
import { AnnouncedHelperText } from '../components/AnnouncedHelperText.tsx';

/** Local storage key of the chosen colour mode: `system` (the default), `light` or `dark`. */
export const THEME_MODE_KEY = 'billfold-theme';

/** The brand green of the logo and the app bar, the same in both themes (white on it is 9:1). */
export const BRAND_GREEN = '#1b5e20';

/**
 * Light and dark palettes (decision 0800). The light theme's warning and info are darkened and the dark theme's
 * colours lightened so that text, outlined chips, icons and chart bars in them reach WCAG AA (4.5:1 for text)
 * on the page and paper backgrounds of their theme.
 */
export const theme = createTheme({
  colorSchemes: {
    light: {
      palette: {
        primary: { main: BRAND_GREEN },
        secondary: { main: '#00695c' },
        warning: { main: '#b34700', dark: '#8a3700' },
        info: { main: '#01579b' },
        background: { default: '#f5f7f5' },
      },
    },
    dark: {
      palette: {
        primary: { main: '#81c784' },
        secondary: { main: '#4db6ac' },
        success: { main: '#66bb6a' },
        error: { main: '#f4776d' },
        warning: { main: '#ffb74d', dark: '#ffcc80' },
        info: { main: '#4fc3f7' },
        background: { default: '#121412', paper: '#1b1e1b' },
      },
    },
  },
  shape: { borderRadius: 8 },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    // Stacks space their children with `gap`, not margins: a row of buttons that wraps on a phone starts its
    // second line at the same edge as the first (margins left the wrapped button indented).
    MuiStack: { defaultProps: { useFlexGap: true } },
    MuiFormHelperText: { defaultProps: { component: AnnouncedHelperText } },
    // The bar keeps the brand colour in the dark theme too (MUI would turn it grey), so the white logo reads.
    MuiAppBar: {
      styleOverrides: { root: { backgroundColor: BRAND_GREEN, color: '#ffffff', backgroundImage: 'none' } },
    },
    // Keyboard focus is always visible: MUI marks keyboard focus with `Mui-focusVisible`, a ripple alone is faint.
    MuiCssBaseline: {
      styleOverrides: (theme) => ({
        '.Mui-focusVisible:not(.MuiInputBase-root):not(.MuiAutocomplete-option), a:focus-visible': {
          outline: `2px solid ${theme.palette.mode === 'dark' ? '#ffffff' : theme.palette.primary.main}`,
          outlineOffset: 2,
        },
        '.MuiAppBar-root .Mui-focusVisible, .MuiAppBar-root a:focus-visible': { outlineColor: '#ffffff' },
      }),
    },
    // Phones and small tablets: every dialog fills the screen (decision 0801).
    MuiDialog: {
      styleOverrides: {
        paper: ({ theme }) => ({
          [theme.breakpoints.down('md')]: {
            margin: 0,
            width: '100%',
            maxWidth: '100%',
            height: '100%',
            maxHeight: 'none',
            borderRadius: 0,
          },
        }),
      },
    },
  },
});
