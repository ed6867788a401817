import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

/** A second click on the selected option of a single-choice group deselects it. */
export function toggleChoice<T>(current: T | null, clicked: T): T | null {
  return current === clicked ? null : clicked;
}

export interface ChoiceGroupProps<T extends string> {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T | null;
  onChange: (value: T | null) => void;
}

/** A single-choice group in which a second click on the selected option deselects it (docs/product.md, Filter panel). */
export function ChoiceGroup<T extends string>({ label, options, value, onChange }: ChoiceGroupProps<T>) {
  const labelId = useId();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
      <Typography id={labelId} variant="caption" color="text.secondary">
        {label}
      </Typography>
      <ToggleButtonGroup
        size="small"
        color="primary"
        aria-labelledby={labelId}
        value={value}
        // Long labels ("Unpaid or In Progress") wrap onto a second row on a phone instead of leaving the screen.
        sx={{ flexWrap: 'wrap' }}
      >
        {options.map((option) => (
          <ToggleButton
            key={option.value}
            value={option.value}
            onClick={() => onChange(toggleChoice(value, option.value))}
            sx={{ px: 1.5, py: 0.5 }}
          >
            {option.label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Box>
  );
}
